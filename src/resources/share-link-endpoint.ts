/**
 * An endpoint of the recipient side (docs/compatibility.md, "Operations" and "Share links"): no credentials, the share
 * link in `shareLink` as the vendor's RecipientView sends it, the work done through the link (throughShareLink: 404 for
 * a link that is not there, refusals worded as the link's holder sees its contract).
 */
import { z } from 'zod';
import type { OpContext } from '../domain/context.js';
import { type ResolvedShareLink, throughShareLink } from '../domain/share-links.js';
import { type EndpointSpec, type Reply, type RequestInfo, defineEndpoint, keyField } from './action.js';

/** The example's share link (docs and OpenAPI). */
const SHARE_LINK = { shareLink: '<RECIPIENT_KEY>' };

type LinkInput<F extends z.ZodRawShape> = z.infer<z.ZodObject<{ shareLink: z.ZodString } & F>>;

export interface ShareLinkEndpoint<F extends z.ZodRawShape, R extends z.ZodType, M extends 'GET' | 'POST'> {
  /** Default POST. */
  method?: M;
  summary: string;
  response: () => R;
  /** The body's or query's fields besides `shareLink`. */
  fields?: () => F;
  /** A body that works, besides `shareLink`. */
  example?: Record<string, unknown>;
  /** The answer, from the resolved link and the input. */
  act(ctx: OpContext, link: ResolvedShareLink, input: LinkInput<F>, request: RequestInfo): Reply;
}

/** One endpoint keyed by a share link. */
export function shareLinkEndpoint<
  R extends z.ZodType,
  F extends z.ZodRawShape = Record<never, never>,
  M extends 'GET' | 'POST' = 'POST',
>(spec: ShareLinkEndpoint<F, R, M>): EndpointSpec<z.ZodObject<{ shareLink: z.ZodString } & F>, R, M> {
  return defineEndpoint({
    method: spec.method ?? ('POST' as M),
    summary: spec.summary,
    scope: 'public',
    response: spec.response,
    schema: () => z.object({ shareLink: keyField(), ...(spec.fields?.() as F) }),
    example: { ...SHARE_LINK, ...spec.example },
    handle(input, ctx, request) {
      const shareLink = (input as { shareLink: string }).shareLink;
      return throughShareLink(ctx, shareLink, (link) => spec.act(ctx, link, input as LinkInput<F>, request));
    },
  });
}
