// The describer is served from the page's origin root; existsSync only has to find conformance/oracles/neutral.mjs.
export const existsSync = (p) => p === '/conformance/oracles/neutral.mjs';
export default { existsSync };
