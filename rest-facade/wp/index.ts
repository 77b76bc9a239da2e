/**
 * Public API of the WordPress-REST-server layer.
 *
 *   import { createWpRestMiddleware, defineRoute, wpResponse, tableError } from './rest-facade/wp/index.ts';
 */
export * from './types.ts';
export {
  WpError,
  Msg,
  msg,
  wpError,
  isWpError,
  tableError,
  noRoute,
  forbidden,
  internalError,
  invalidParamsError,
  invalidTypeError,
  missingParamsError,
  ERROR_CODES,
  type KnownErrorCode,
  type MessageRef,
} from './errors.ts';
export { getT, catalogs, isLang } from './i18n.ts';
export { isTruthy, parseList, coerceBoolean, coerceInteger, coerceString, isNumeric } from './params.ts';
export { defineRoute, expandPattern, withArgs } from './route.ts';
export { wpResponse, encodeJson, filterFields } from './response.ts';
export { namespaceIndex, rootIndex } from './index-builder.ts';
export { createWpRestMiddleware, makeUrls, type WpRestOptions, type WpLogger } from './mount.ts';
