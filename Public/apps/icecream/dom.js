// The SDK builds DOM safely (strings become text); the views import it from here.
export { h } from "/sdk/index.js";
