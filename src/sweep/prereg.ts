// The pre-registration gate (docs/sweeps.md, "Registered sweeps"): a sweep naming `"prereg": PATH`
// runs only when PATH (relative to the git repository root of the working directory) exists, has every
// required heading, is committed and has no uncommitted change, staged or not. Checked before a sweep
// starts and again by every `--cell I`, so no cell runs under a modified pre-registration; a passing
// check gives the stamp every cell record carries: the commit that last changed the file and its blob.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PREREG_HEADINGS, type PreregStamp } from '../formats/sweep/registration';

export type { PreregStamp };

function git(cwd: string, args: string[]): { ok: boolean; out: string; err: string } {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.error) return { ok: false, out: '', err: r.error.message };
  return { ok: r.status === 0, out: r.stdout.trimEnd(), err: r.stderr.trim() }; // porcelain lines start with a space
}

/** The headings of PREREG_HEADINGS that `text` lacks (a line "## Name", exactly). */
export function missingHeadings(text: string): string[] {
  const have = new Set(
    text
      .split(/\r?\n/)
      .map((l) => /^##\s+(.+?)\s*$/.exec(l)?.[1])
      .filter((h): h is string => !!h),
  );
  return PREREG_HEADINGS.filter((h) => !have.has(h));
}

/**
 * Check the pre-registration `path` in the repository holding `cwd`: every problem, or its stamp.
 * Problems name the file and how to fix them.
 */
export function checkPrereg(
  path: string,
  cwd: string = process.cwd(),
): { ok: true; stamp: PreregStamp } | { ok: false; errors: string[] } {
  const at = `prereg ${path}`;
  const top = git(cwd, ['rev-parse', '--show-toplevel']);
  if (!top.ok)
    return {
      ok: false,
      errors: [
        `${at}: ${cwd} is not in a git checkout (${top.err || 'git rev-parse failed'}); a registered sweep runs from the project's git checkout, where its pre-registration is committed`,
      ],
    };
  const root = top.out;
  const file = join(root, path);
  if (!existsSync(file))
    return {
      ok: false,
      errors: [
        `${at}: no such file in the repository ${root}; write it (headings ${PREREG_HEADINGS.map((h) => `## ${h}`).join(', ')}) and commit it before the sweep`,
      ],
    };
  const errors: string[] = [];
  const missing = missingHeadings(readFileSync(file, 'utf8'));
  if (missing.length)
    errors.push(
      `${at}: missing the heading${missing.length > 1 ? 's' : ''} ${missing.map((h) => `"## ${h}"`).join(', ')}`,
    );
  const inHead = git(root, ['ls-tree', '--name-only', 'HEAD', '--', path]);
  if (!inHead.ok || !inHead.out)
    errors.push(
      `${at}: not committed (git add ${path} && git commit); a registered run cites the commit of its pre-registration`,
    );
  else {
    const st = git(root, ['status', '--porcelain', '--', path]);
    if (!st.ok) errors.push(`${at}: git status failed: ${st.err}`);
    else if (st.out) {
      const x = st.out.slice(0, 2);
      const kinds = [x[0] !== ' ' && x[0] !== '?' ? 'staged' : '', x[1] !== ' ' ? 'unstaged' : '']
        .filter(Boolean)
        .join(' and ');
      errors.push(
        `${at}: has uncommitted ${kinds} changes; commit them (a new pre-registration commit) or restore the committed file (git checkout HEAD -- ${path}) before a registered run`,
      );
    }
  }
  if (errors.length) return { ok: false, errors };
  const commit = git(root, ['log', '-1', '--format=%H', '--', path]);
  const blob = git(root, ['hash-object', '--', path]);
  if (!commit.ok || !commit.out || !blob.ok)
    return {
      ok: false,
      errors: [`${at}: cannot read its commit or blob from git (${commit.err || blob.err})`],
    };
  return { ok: true, stamp: { path, commit: commit.out, blob: blob.out } };
}
