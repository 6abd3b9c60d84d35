export const dirname = (p) => p.replace(/\/[^/]*\/?$/, '') || '/';
export const join = (...xs) => xs.join('/').replace(/\/+/g, '/');
export default { dirname, join };
