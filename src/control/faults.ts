/**
 * Faults as control operations: a list of faults that can be set, listed and removed. The same operations serve
 * API faults (api-faults/: errors and latency on /api requests, docs/scenarios.md) and receiver faults
 * (webhooks/receiver-faults.ts: deliveries spoilt on purpose, docs/webhooks.md); only the registry and the spec
 * differ. `source` groups faults (`control`, or `scenario:<name>` so unloading a scenario removes its own).
 */
import type { z } from 'zod';
import { ApiError, quote } from '../core/errors.js';
import { parseWith } from '../core/validation.js';
import type { FaultView, ApiFaults } from '../api-faults/registry.js';
import { faultSpec } from '../api-faults/spec.js';
import { type ReceiverFaultView, receiverFaultSpec } from '../webhooks/receiver-fault-spec.js';
import type { ReceiverFaults } from '../webhooks/receiver-faults.js';
import { faultList, receiverFaultList } from './schemas.js';

/** What a fault registry offers: the API faults' and the receiver faults' alike. */
export interface FaultRegistry<Spec, View> {
  add(spec: Spec, source: string, seed?: number, platformId?: string): string;
  remove(id: string, platformId?: string): boolean;
  clear(source?: string, platformId?: string): number;
  list(): View[];
}

/** The operations on one list of faults, as the routes, the library and scenarios call them. */
export interface FaultOperations<View> {
  /** One fault, several as `{faults: [...]}`, or an array; returns their ids. `platformId`: set for that tenant. */
  add(input: unknown, source?: string, seed?: number, platformId?: string): string[];
  /** Removes one (404 when no fault has that id, or, with `platformId`, none of that tenant). */
  remove(id: string, platformId?: string): void;
  /** Removes every fault, or those of one source, or of one tenant; returns how many. */
  clear(source?: string, platformId?: string): number;
  list(source?: string, platformId?: string): View[];
}

export class FaultControl<Spec, View extends { source: string; platformId?: string }> implements FaultOperations<View> {
  constructor(
    private readonly registry: FaultRegistry<Spec, View>,
    /** One spec, and several as `{faults: [...]}` (so a refusal names `faults.1.kind`). */
    private readonly schemas: {
      one: () => z.ZodType<Spec, unknown>;
      many: () => z.ZodType<{ faults: Spec[] }, unknown>;
    },
    /** How refusals name one: "fault", "receiver fault". */
    private readonly noun: string,
  ) {}

  static forApi(faults: ApiFaults): FaultControl<z.output<ReturnType<typeof faultSpec>>, FaultView> {
    return new FaultControl(faults, { one: faultSpec, many: faultList }, 'fault');
  }

  static forReceivers(
    faults: ReceiverFaults,
  ): FaultControl<z.output<ReturnType<typeof receiverFaultSpec>>, ReceiverFaultView> {
    return new FaultControl(faults, { one: receiverFaultSpec, many: receiverFaultList }, 'receiver fault');
  }

  /** One fault, several as `{faults: [...]}`, or an array; every spec is checked before any is added. */
  add(input: unknown, source = 'control', seed?: number, platformId?: string): string[] {
    const { one, many } = this.schemas;
    const specs = Array.isArray(input)
      ? input.map((spec) => parseWith(one(), spec))
      : input !== null && typeof input === 'object' && 'faults' in input
        ? parseWith(many(), input).faults
        : [parseWith(one(), input)];
    return specs.map((spec) => this.registry.add(spec, source, seed, platformId));
  }

  remove(id: string, platformId?: string): void {
    if (!this.registry.remove(id, platformId)) throw ApiError.notFound(`No ${this.noun} with id ${quote(id)}`);
  }

  /** Removes every fault, or those of one source, or of one tenant; returns how many. */
  clear(source?: string, platformId?: string): number {
    return this.registry.clear(source, platformId);
  }

  list(source?: string, platformId?: string): View[] {
    return this.registry
      .list()
      .filter(
        (f) =>
          (source === undefined || f.source === source) && (platformId === undefined || f.platformId === platformId),
      );
  }
}
