// Running the op table on a backend: every op becomes a method taking its named arguments (OpBackend), by
// default the op's CPU kernel over the backend's typed-array view of its tensors (cpuOps). The wasm
// backend replaces the ops it accelerates; the WebGPU backend replaces all of them.
import { kernelArgs, type ArrayAccess, type CallArgs } from './declare';
import { OP_NAMES, opDecl, type OpMethods, type OpName } from './table';

/**
 * A base class whose instances have every op as a method: a backend class extends it and installs its
 * implementations (installOps) in its constructor.
 */
export const OpBackend = class {} as unknown as abstract new () => OpMethods;

/** Some implementations of ops, each taking its named arguments. */
export type OpImpls = Partial<{ [N in OpName]: OpMethods[N] }>;

/** Install every op of `impls` as a method of `target`; throws naming the ops `impls` lacks. */
export function installOps(target: OpMethods, impls: OpImpls, who: string): void {
  const missing = OP_NAMES.filter((n) => typeof impls[n] !== 'function');
  if (missing.length > 0)
    throw new Error(
      `${who} implements no ${missing.join(', ')}: every op of src/engine/ops/table.ts needs one`,
    );
  Object.assign(target, impls);
}

/** The CPU kernel of every op over `mem`, calling `before(name)` first (counting a dispatch). */
export function cpuOps(mem: ArrayAccess, before: (name: OpName) => void): Required<OpImpls> {
  const impls: Record<string, (a: CallArgs<never>) => void> = {};
  for (const name of OP_NAMES) {
    const d = opDecl(name);
    impls[name] = (a) => {
      before(name);
      d.cpu(kernelArgs(d.args, a, mem));
    };
  }
  return impls as unknown as Required<OpImpls>;
}
