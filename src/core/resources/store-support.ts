import type { StoreCapabilities } from '../../contracts/store-query.js';
import { scimErrors } from '../../errors/index.js';
import type { AttributePath, Filter } from '../../filter/ast.js';
import { previewJson } from '../../json/preview-json.js';

/**
 * Throws 400 `invalidFilter` when a store declares (`capabilities.supportsFilter`) that it
 * cannot answer `filter`, a valid filter whose text is `text`: a precise error rather than a
 * wrong page.
 */
export function assertStoreFilters(
  capabilities: StoreCapabilities | undefined,
  filter: Filter,
  text: string,
): void {
  const supports = capabilities?.supportsFilter;
  if (supports && !supports(filter)) {
    throw scimErrors.invalidFilter(
      `The filter "${text}" is valid, but this server's store cannot answer it.`,
    );
  }
}

/**
 * Throws 400 `invalidValue` unless a store declares (`capabilities.supportsSort`) that it can
 * sort by `path`; `what` names the resources (`classes`) in the detail.
 */
export function assertStoreSorts(
  capabilities: StoreCapabilities | undefined,
  path: AttributePath,
  text: string,
  what: string,
): void {
  const supports = capabilities?.supportsSort;
  if (!supports || !supports(path)) {
    throw scimErrors.invalidValue(
      `"sortBy": this server's store cannot sort ${what} by ${previewJson(text)}.`,
    );
  }
}
