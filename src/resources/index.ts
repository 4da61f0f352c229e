import type { PlainResource, ResourceSpec } from './action.js';
import { contractEventResource } from './contract-event.js';
import { contractShareLinkResource } from './contract-share-link.js';
import { eventStatusResource } from './event-status.js';
import { clientResource } from './client.js';
import { contractResource } from './contract.js';
import { placeholderResource } from './placeholder.js';
import { recipientResource } from './recipient.js';
import { settingsResource } from './settings.js';
import { templateResource } from './template.js';
import { tokenResource } from './token.js';
import { userResource } from './user.js';
import {
  checkContractChangedResource,
  recipientContractEventResource,
  recipientContractResource,
  recipientContractStatusResource,
  recipientPlaceholderResource,
} from './recipient-contract.js';
import {
  recipientApproveEmailResource,
  recipientApproveResource,
  recipientSignEmailResource,
  recipientSignResource,
} from './recipient-sign.js';
import { webhookResource } from './webhook.js';
import {
  checkContractValueResource,
  contractApproveResource,
  contractEmailApproveResource,
  contractEmailSignResource,
  contractSignResource,
} from './owner-sign.js';

/** Every /api resource of the interface (spec §4–5), in the spec's order. */
export const resources: ResourceSpec[] = [
  tokenResource,
  clientResource,
  userResource,
  contractResource,
  recipientResource,
  templateResource,
  placeholderResource,
  settingsResource,
  webhookResource,
];

/**
 * The real service's component-only endpoints without the `{data: {action}}` envelope (docs/compatibility.md), the
 * recipient side last (docs/compatibility.md).
 */
export const plainResources: PlainResource[] = [
  contractEventResource,
  eventStatusResource,
  contractShareLinkResource,
  recipientContractResource,
  recipientContractStatusResource,
  recipientContractEventResource,
  checkContractChangedResource,
  recipientPlaceholderResource,
  recipientSignResource,
  recipientApproveResource,
  recipientSignEmailResource,
  recipientApproveEmailResource,
  contractSignResource,
  contractApproveResource,
  contractEmailSignResource,
  contractEmailApproveResource,
  checkContractValueResource,
];
