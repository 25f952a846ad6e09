// NODE ONLY: the CLIs' reading of a config's file task (src/tasks/file/node.ts): every problem of a bad or
// missing file is printed, at most SHOWN of them with a count of the rest, and the CLI exits 2.
import { TaskFileError } from '../tasks/file/load';
import { withTaskFile } from '../tasks/file/node';

/** Problems printed in full; the rest are counted. */
const SHOWN = 200;

/** `raw` with its file task loaded (see withTaskFile), or exit 2 listing the file's problems. */
export function taskFileOrExit(raw: Record<string, unknown>, configFile: string): Record<string, unknown> {
  try {
    return withTaskFile(raw, configFile);
  } catch (e) {
    if (!(e instanceof TaskFileError)) throw e;
    const n = e.messages.length;
    const shown = e.messages.slice(0, SHOWN).join('\n  - ');
    const more = n > SHOWN ? `\n  ... and ${n - SHOWN} more` : '';
    process.stderr.write(
      `${configFile}: task file: ${n} problem${n === 1 ? '' : 's'}; nothing was run:\n  - ${shown}${more}\n`,
    );
    process.exit(2);
  }
}
