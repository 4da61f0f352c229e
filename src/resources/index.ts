import type { ResourceSpec } from './action.js';
import { clientResource } from './client.js';
import { contractResource } from './contract.js';
import { placeholderResource } from './placeholder.js';
import { recipientResource } from './recipient.js';
import { settingsResource } from './settings.js';
import { templateResource } from './template.js';
import { tokenResource } from './token.js';
import { userResource } from './user.js';
import { webhookResource } from './webhook.js';

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
