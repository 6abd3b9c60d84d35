// util.types by brand checks (a getter or method that throws on other objects), not by Symbol.toStringTag.
const brand = (fn) => (v) => {
  if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return false;
  try { fn(v); return true; } catch { return false; }
};
const getter = (C, name) => Object.getOwnPropertyDescriptor(C.prototype, name).get;
const tag = (t) => (v) => Object.prototype.toString.call(v) === `[object ${t}]`;
const abLen = getter(ArrayBuffer, 'byteLength');
const sabLen = typeof SharedArrayBuffer === 'function' ? getter(SharedArrayBuffer, 'byteLength') : null;
export const types = {
  isDataView: brand((v) => getter(DataView, 'byteLength').call(v)),
  isSharedArrayBuffer: sabLen ? brand((v) => sabLen.call(v)) : () => false,
  // A page cannot tell a Proxy from its target; the vectors build no proxies.
  isProxy: () => false,
  isArrayBuffer: brand((v) => abLen.call(v)),
  isDate: brand((v) => Date.prototype.getTime.call(v)),
  isRegExp: brand((v) => getter(RegExp, 'source').call(v)),
  isMap: brand((v) => Map.prototype.has.call(v)),
  isSet: brand((v) => Set.prototype.has.call(v)),
  isBooleanObject: brand((v) => Boolean.prototype.valueOf.call(v)),
  isNumberObject: brand((v) => Number.prototype.valueOf.call(v)),
  isBigIntObject: brand((v) => BigInt.prototype.valueOf.call(v)),
  isStringObject: brand((v) => String.prototype.valueOf.call(v)),
  isSymbolObject: brand((v) => Symbol.prototype.valueOf.call(v)),
  isNativeError: typeof Error.isError === 'function' ? (v) => Error.isError(v) : tag('Error'),
  isWeakMap: brand((v) => WeakMap.prototype.has.call(v)),
  isWeakSet: brand((v) => WeakSet.prototype.has.call(v)),
  isPromise: tag('Promise'),
  isGeneratorObject: tag('Generator'),
};
export default { types };
