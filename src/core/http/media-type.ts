/** The SCIM media type (RFC 7644 §3.1). */
export const SCIM_MEDIA_TYPE = 'application/scim+json';
/** The Content-Type of every response body. */
export const RESPONSE_CONTENT_TYPE = 'application/scim+json; charset=utf-8';

/** Tells whether a Content-Type names a JSON body scimkit reads. */
export function isJsonMediaType(contentType: string): boolean {
  const semi = contentType.indexOf(';');
  const type = (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  return type === SCIM_MEDIA_TYPE || type === 'application/json';
}
