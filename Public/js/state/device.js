// How the account's device list names this browser until its owner renames it:
// "Chrome on Android", from the user agent (a guess, never sent anywhere else).

const BROWSERS = [["Edg/", "Edge"], ["Firefox/", "Firefox"], ["Chrome/", "Chrome"], ["Safari/", "Safari"]];
const SYSTEMS = [["Android", "Android"], ["iPhone", "iPhone"], ["iPad", "iPad"], ["Mac OS X", "Mac"], ["Windows", "Windows"], ["Linux", "Linux"]];

/** @param {string} userAgent */
export function deviceName(userAgent = "") {
  const browser = BROWSERS.find(([k]) => userAgent.includes(k))?.[1] ?? "Browser";
  const system = SYSTEMS.find(([k]) => userAgent.includes(k))?.[1];
  return system ? `${browser} on ${system}` : browser;
}
