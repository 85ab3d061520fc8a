// A store as the page has it once a user signed in, on a fresh fake localStorage.
import { Store } from "../../Public/js/store.js";

export function signedInStore(storage, user) {
  storage.clear();
  const store = new Store();
  store.loadForUser(user.id);
  store.update(["user"], () => ({ user }));
  return store;
}
