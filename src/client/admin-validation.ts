// The Admin client's response validation, imported dynamically by createAdminClient only when
// `validate` is on; it references the Admin loader map alone.
import { adminRoutes } from '../../generated/operations/routes.js';
import { loaders } from '../../generated/validators/admin/index.js';
import { responseChecker } from './validation.js';

export const checkAdminResponse = /* @__PURE__ */ responseChecker('admin', loaders, adminRoutes);
