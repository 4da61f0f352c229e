/**
 * The contract owner's signing endpoints, flat bodies with the usual credentials, as the vendor's ContractEditor
 * calls them (docs/compatibility.md, "Owner endpoints"): `contract_sign` GET/POST, `contract_approve`,
 * `contract_email_sign`, `contract_email_approve`, `check_contract_value`. (`contract_email_sign_pdf` is multipart:
 * resources/documents.ts.)
 */
import { z } from 'zod';
import { requireClient } from '../domain/context.js';
import { findContract } from '../domain/contracts.js';
import { contractValueChanged, ownerApprove, ownerConfirm, ownerSign, ownerSignatures } from '../domain/owner-acts.js';
import {
  type PlainResource,
  clientKeyField,
  defineEndpoint,
  keyField,
  optionalKeyField,
  reply,
  signerFields,
} from './action.js';
import { actedSchema, okSchema, signatureSchema } from './response-shape.js';
import { contractListEndpoint } from './contract-list-endpoint.js';

const CONTRACT = { contractKey: '<CONTRACT_KEY>', clientKey: '<CLIENT_KEY>' };
const PERSON = { fullName: 'Ada Lovelace', email: 'ada@example.com' };

const person = () => ({
  contractKey: keyField(),
  clientKey: clientKeyField(),
  ...signerFields(),
});

export const contractSignResource = {
  path: '/api/contract_sign',
  endpoints: [
    contractListEndpoint({
      summary: "A contract's signatures, oldest first (an empty contractKey: none)",
      response: () => z.array(signatureSchema()),
      list: ownerSignatures,
    }),
    defineEndpoint({
      method: 'POST',
      summary: "Sign from the owner's side, as the contract's sign recipient with the email given (PNG data URL)",
      scope: 'client',
      response: () => okSchema(201, { ...actedSchema(), recipientId: z.number().int() }),
      schema: () => z.object({ ...person(), owner: z.boolean().optional(), base64: z.string() }),
      example: { ...CONTRACT, ...PERSON, owner: false, base64: 'data:image/png;base64,iVBORw0KGgo=', ipInfo: '' },
      handle(input, ctx) {
        const contract = findContract(ctx, requireClient(ctx), input.contractKey);
        return reply(201, 'Contract signed', ownerSign(ctx, contract, input));
      },
    }),
  ],
} satisfies PlainResource;

export const contractApproveResource = {
  path: '/api/contract_approve',
  endpoints: [
    defineEndpoint({
      method: 'POST',
      summary: "Approve from the owner's side, as the contract's approve recipient with the email given",
      scope: 'client',
      response: () => okSchema(201, actedSchema()),
      schema: () => z.object(person()),
      example: { ...CONTRACT, ...PERSON },
      handle(input, ctx) {
        const contract = findContract(ctx, requireClient(ctx), input.contractKey);
        return reply(201, 'Contract approved', ownerApprove(ctx, contract, input));
      },
    }),
  ],
} satisfies PlainResource;

function confirmation(role: 'sign' | 'approve') {
  return {
    path: `/api/contract_email_${role}`,
    endpoints: [
      defineEndpoint({
        method: 'POST',
        summary: `The confirmation email of the owner's ${role === 'sign' ? 'signature' : 'approval'} (to the outbox)`,
        scope: 'client',
        response: () => okSchema(201, { result: z.literal(true) }),
        schema: () => z.object({ contractKey: keyField(), clientKey: clientKeyField() }),
        example: CONTRACT,
        handle(input, ctx) {
          ownerConfirm(ctx, findContract(ctx, requireClient(ctx), input.contractKey), role);
          return reply(201, 'Email sent', { result: true });
        },
      }),
    ],
  } satisfies PlainResource;
}

export const contractEmailSignResource = confirmation('sign');
export const contractEmailApproveResource = confirmation('approve');

export const checkContractValueResource = {
  path: '/api/check_contract_value',
  endpoints: [
    defineEndpoint({
      method: 'POST',
      summary: 'Whether the content changed under the editor: signatures made since it read signCount of them',
      scope: 'client',
      response: () => okSchema(200, { changed: z.boolean(), contractValue: z.string().optional() }),
      schema: () =>
        z.object({
          contractKey: keyField(),
          clientKey: clientKeyField(),
          userKey: optionalKeyField(),
          signCount: z.number().int().min(0).optional(),
        }),
      example: { ...CONTRACT, userKey: '', signCount: 0 },
      handle(input, ctx) {
        const contract = findContract(ctx, requireClient(ctx), input.contractKey);
        return reply(200, 'Contract checked', contractValueChanged(ctx, contract, input.signCount));
      },
    }),
  ],
} satisfies PlainResource;
