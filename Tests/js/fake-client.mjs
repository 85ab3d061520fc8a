// A stand-in for net/client.js's ParlorClient: requests wait until the test answers
// them (resolve/reject), and the test plays the server's events and status changes.
export class FakeClient extends EventTarget {
  constructor() {
    super();
    this.status = "online";
    this.requests = [];
  }
  signInAnswer() {
    return null;
  }
  request(type, fields) {
    return new Promise((resolve, reject) => this.requests.push({ type, fields, resolve, reject }));
  }
  sends() {
    return this.requests.filter((r) => r.type === "send");
  }
  serverSends(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
  setStatus(status) {
    this.status = status;
    this.dispatchEvent(new CustomEvent("status", { detail: { status } }));
  }
}
