export const fileURLToPath = (u) => new URL(u).pathname;
export const pathToFileURL = (p) => new URL(p, location.origin);
export default { fileURLToPath, pathToFileURL };
