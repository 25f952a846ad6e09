// The op table: every engine op, by name (issue 19, step 1). A Backend is these ops with named arguments
// (OpMethods) plus memory; the CPU backend runs each op's declared kernel, the wasm backend overrides the
// ops it accelerates (the rest run the CPU kernel over wasm memory, counted), and the WebGPU backend
// implements all of them (checked when it is built). Parity (src/engine/parity/ops.parity.ts,
// src/engine/wasm/wasmParity.suite.ts) and the bench read this table. To add an op: docs/architecture.md.
import type { CallArgs, OpDecl } from './declare';
import * as embed from './embed';
import * as linear from './linear';
import * as attention from './attention';
import * as elementwise from './elementwise';
import * as logprob from './logprob';
import * as optim from './optim';

export const OPS = { ...embed, ...linear, ...attention, ...elementwise, ...logprob, ...optim };

export type Ops = typeof OPS;
export type OpName = keyof Ops;
/** The named arguments of op `N`. */
export type OpArgs<N extends OpName> = CallArgs<Ops[N]['args']>;
/** Every op as a method taking its named arguments. */
export type OpMethods = { [N in OpName]: (a: OpArgs<N>) => void };

/** Every op's name, in table order. */
export const OP_NAMES = Object.keys(OPS) as OpName[];

/** The declaration of op `name` (its argument spec and CPU kernel), loosely typed for generic callers. */
export const opDecl = (name: OpName): OpDecl => OPS[name] as unknown as OpDecl;
