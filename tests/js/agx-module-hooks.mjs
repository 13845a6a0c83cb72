// Module hooks (node:module register) that compose the package as the built demo page does
// (scripts/build-demo.mjs): js/agx/'s `../core.js` is web-demo/agx-module.js, the AGX module's
// instance; every other module keeps js/core.js, the page's.
const AGX_MODULE = new URL('../../web-demo/agx-module.js', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if (specifier === '../core.js' && /\/js\/agx\/[\w-]+\.js$/.test(context.parentURL ?? '')) return { url: AGX_MODULE, shortCircuit: true };
  return next(specifier, context);
}
