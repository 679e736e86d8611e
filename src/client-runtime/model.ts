/**
 * The client runtime's vocabulary: the hex and typed-data types a signer sees, and the shapes of
 * the tables `oec generate` writes into client.ts (client-plans.ts builds them from the spec).
 * Pure types: nothing here runs.
 */

export type Hex = `0x${string}`;

/** What a signer signs: the argument of viem's `signTypedData`. */
export interface TypedDataPayload {
  domain: { name?: string; version?: string; chainId?: number; verifyingContract?: Hex };
  types: { readonly [struct: string]: readonly { readonly name: string; readonly type: string }[] };
  primaryType: string;
  message: { [field: string]: string | bigint | boolean };
}

/** @internal How a body is built: signed field by field, the perp Agent, a list or object holding signed parts, plain JSON. */
export type Plan =
  | { readonly signed: readonly string[] }
  | { readonly perp: PerpPlan }
  | { readonly items: Plan }
  | { readonly props: { readonly [key: string]: Plan } }
  | { readonly plain: true };

/** @internal The key order the venue hashes a perp action in (the schemas' `properties` order), per tagged case. */
export interface KeyOrder {
  readonly keys?: readonly string[];
  readonly props?: { readonly [key: string]: KeyOrder };
  readonly items?: KeyOrder;
  readonly tag?: string;
  readonly cases?: { readonly [value: string]: KeyOrder };
}

/** @internal A perp operation: its Agent message, the hash field, the signature and action fields, the action's key order. */
export interface PerpPlan {
  readonly message: string;
  readonly derived: string;
  readonly signature: string;
  readonly action: string;
  readonly order?: KeyOrder;
}

/** @internal How one operation is sent. */
export interface OperationPlan {
  readonly method: string;
  readonly path: string;
  readonly query: 'none' | 'optional' | 'required';
  readonly pathParams?: readonly string[];
  readonly body: Plan | null;
}

/** @internal The generated tables the runtime walks: signed body schemas, operation plans, rate-limit header names, typed data. */
export interface RuntimeTables {
  readonly bodies: {
    readonly [schema: string]: {
      readonly signature: string;
      readonly variants: readonly { readonly message: string; readonly whenPresent?: string; readonly whenAbsent?: string }[];
    };
  };
  readonly plans: { readonly [id: string]: OperationPlan };
  readonly headers: {
    readonly limit: string | null;
    readonly remaining: string | null;
    readonly reset: string | null;
    readonly retryAfter: string | null;
  };
  readonly typedData: {
    readonly [message: string]: {
      readonly domain: TypedDataPayload['domain'];
      readonly primaryType: string;
      readonly types: TypedDataPayload['types'];
    };
  };
  readonly bodyFields: { readonly [message: string]: { readonly [field: string]: string } };
}
