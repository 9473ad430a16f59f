// node-fetch v2 falls back to whatwg-url only when Node's `url` module has no URL class, which never
// happens on the Node versions we support; this keeps its 280 KB of Unicode tables out of the bundles.
module.exports = { URL: globalThis.URL, URLSearchParams: globalThis.URLSearchParams };
