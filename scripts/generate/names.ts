// Export names used by the generated modules, shared by generators and the runtime wrappers.
import { escapePointerSegment } from '../../src/contract/json-pointer.js';

/** `order.created` -> `orderCreated`; `seller.shipment.updated` -> `sellerShipmentUpdated`. */
export function eventExportName(event: string): string {
  return event
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part, i) => (i === 0 ? part.toLowerCase() : part[0].toUpperCase() + part.slice(1).toLowerCase()))
    .join('');
}

/** `order.created` -> `OrderCreated`. */
export function eventTypeName(event: string): string {
  const camel = eventExportName(event);
  return camel[0].toUpperCase() + camel.slice(1);
}

export function responseExportName(operationId: string, status: string): string {
  return `${operationId}_${status}`;
}

export function requestExportName(operationId: string): string {
  return `${operationId}_request`;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** JSON pointer segment escaping (RFC 6901). */
export function pointerSegment(segment: string): string {
  return escapePointerSegment(segment);
}
