'use strict';
// What `require('@fastify/busboy')` returns when the application's package.json overrides that dependency with this
// folder: formwire's `Busboy` (the @fastify/busboy 3 API), exported the three ways @fastify/busboy exports itself.
const { Busboy } = require('formwire/busboy');

function FastifyBusboy(opts) {
  return Busboy(opts);
}
module.exports = FastifyBusboy;
module.exports.default = FastifyBusboy;
module.exports.Busboy = FastifyBusboy;
