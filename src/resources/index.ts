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

/**
 * Every envelope /api resource of the service, by its name under `/api/`, in the order of the service's documentation
 * (docs/compatibility.md, "Operations"). The router and the OpenAPI document read the list below; the package's
 * request and answer types (api-types.ts) read this table.
 */
export const resourceTable = {
  token: tokenResource,
  client: clientResource,
  user: userResource,
  contract: contractResource,
  recipient: recipientResource,
  template: templateResource,
  placeholder: placeholderResource,
  settings: settingsResource,
  webhook: webhookResource,
};

export const resources: ResourceSpec[] = Object.values(resourceTable);

/**
 * The real service's component-only endpoints without the `{data: {action}}` envelope (docs/compatibility.md), by
 * their name under `/api/`, the recipient side last (docs/compatibility.md).
 */
export const plainResourceTable = {
  contract_event: contractEventResource,
  event_status: eventStatusResource,
  contract_share_link: contractShareLinkResource,
  recipient_contract: recipientContractResource,
  recipient_contract_status: recipientContractStatusResource,
  recipient_contract_event: recipientContractEventResource,
  check_contract_changed: checkContractChangedResource,
  recipient_placeholder: recipientPlaceholderResource,
  recipient_sign: recipientSignResource,
  recipient_approve: recipientApproveResource,
  recipient_sign_email: recipientSignEmailResource,
  recipient_approve_email: recipientApproveEmailResource,
  contract_sign: contractSignResource,
  contract_approve: contractApproveResource,
  contract_email_sign: contractEmailSignResource,
  contract_email_approve: contractEmailApproveResource,
  check_contract_value: checkContractValueResource,
};

export const plainResources: PlainResource[] = Object.values(plainResourceTable);
