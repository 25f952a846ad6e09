// The WGSL compiler's messages for a WebGPU pipeline that failed to compile (used by webgpuBackend.ts prepare()).

/** The compiler's error messages for a module (line:column), else the pipeline error's message. */
export async function compileErrors(module: GPUShaderModule, e: unknown): Promise<string> {
  const fallback = e instanceof Error ? e.message : String(e);
  try {
    const info = await module.getCompilationInfo();
    const errs = info.messages
      .filter((m) => m.type === 'error')
      .map((m) => `${m.lineNum}:${m.linePos} ${m.message}`);
    return errs.length ? errs.join('; ') : fallback;
  } catch {
    return fallback;
  }
}
