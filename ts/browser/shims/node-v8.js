// No V8 serializer is exposed to pages: the describer's length-tracking check (isLengthTracking) fails here, as on Bun.
export class Serializer {
  constructor() {
    throw new Error('node:v8 Serializer is not available in a browser page');
  }
}
export default { Serializer };
