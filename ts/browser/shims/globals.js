// Browser stand-ins for the two Node globals the conformance testee and the neutral describer use (Buffer for
// base64/hex, process for stdin/stdout). Test infrastructure only: the package itself needs neither.
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
class Buffer extends Uint8Array {
  static from(x, a, b) {
    if (typeof x === 'string') {
      if (a === 'base64') {
        const s = atob(x);
        const u = new Buffer(s.length);
        for (let i = 0; i < s.length; i++) u[i] = s.charCodeAt(i);
        return u;
      }
      if (a === 'hex') {
        const u = new Buffer(x.length >> 1);
        for (let i = 0; i < u.length; i++) u[i] = parseInt(x.substr(i * 2, 2), 16);
        return u;
      }
      const e = new TextEncoder().encode(x);
      const u = new Buffer(e.length);
      u.set(e);
      return u;
    }
    if (x instanceof ArrayBuffer) return new Buffer(x, a ?? 0, b ?? x.byteLength - (a ?? 0));
    const u = new Buffer(x.length);
    u.set(x);
    return u;
  }
  static concat(list) {
    let n = 0;
    for (const c of list) n += c.length;
    const u = new Buffer(n);
    let o = 0;
    for (const c of list) {
      u.set(c, o);
      o += c.length;
    }
    return u;
  }
  toString(enc) {
    if (enc === 'hex') {
      let s = '';
      for (let i = 0; i < this.length; i++) s += (this[i] < 16 ? '0' : '') + this[i].toString(16);
      return s;
    }
    if (enc === 'base64') {
      let s = '';
      for (let i = 0; i < this.length; i += 3) {
        const a = this[i], b = this[i + 1], c = this[i + 2];
        s += B64[a >> 2] + B64[((a & 3) << 4) | ((b ?? 0) >> 4)];
        s += b === undefined ? '=' : B64[((b & 15) << 2) | ((c ?? 0) >> 6)];
        s += c === undefined ? '=' : B64[c & 63];
      }
      return s;
    }
    return new TextDecoder().decode(this);
  }
}
// The testee's main loop reads process.stdin through the readline shim and answers on process.stdout.write.
const answers = [];
globalThis.Buffer = Buffer;
globalThis.process = {
  stdin: null,
  env: {},
  stdout: { write: (s) => { answers.shift()?.(s); return true; } },
  stderr: { write: (s) => { console.error(s); return true; } },
  exit: (code) => { console.error('testee exit', code); },
};
globalThis.__fwAnswers = answers;
