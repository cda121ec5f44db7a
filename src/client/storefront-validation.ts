// The storefront client's response validation, imported dynamically by createStorefrontClient only
// when `validate` is on. It references the storefront loader map alone, so a storefront app's
// bundle has one lazy chunk per storefront operation and none for the Admin API. It shares no
// module with the code that loads with the client, so a bundler keeps it out of the initial chunks.
import { storefrontRoutes } from '../../generated/operations/routes.js';
import { loaders } from '../../generated/validators/storefront/index.js';
import { responseChecker } from './validation.js';

export const checkStorefrontResponse = /* @__PURE__ */ responseChecker('storefront', loaders, storefrontRoutes);
