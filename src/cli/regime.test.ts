// `npm run regime` from the command line: bad input is refused with the field named (exit 2, nothing
// measured), and a one-agent cohort is measured with gate A3 reported as needing a pair.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('./regime.ts', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'regime-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const run = (args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], { encoding: 'utf8' });

describe('npm run regime: bad input', () => {
  it('an unknown config file is refused with its path and what to give instead', () => {
    const r = run(['--config', join(root, 'nope.json')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--config .*nope\.json: cannot read it as JSON/);
    expect(r.stderr).toMatch(/experiments\/paper-demo\.json/);
  });

  it('K < 2 and T <= 0 are refused naming the fields, nothing is measured', () => {
    const r = run(['--preset', 'paper-demo', '--samples', '1', '--temperature', '0']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/2 problems; nothing was measured/);
    expect(r.stderr).toMatch(/--samples \(K\): must be an integer >= 2/);
    expect(r.stderr).toMatch(/--temperature \(T\): must be a number in \(0, 10\]/);
    expect(r.stdout).toBe('');
  });

  it('an unknown preset lists the valid ones', () => {
    const r = run(['--preset', 'paper-dem']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown preset 'paper-dem' \(valid: .*paper-demo/);
  });

  it('a one-agent cohort: A3 needs a pair, the other gates are measured', { timeout: 60_000 }, () => {
    const file = join(root, 'one.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'one-agent',
        seed: 1,
        steps: 1,
        methods: ['co-rl'],
        task: { kind: 'add', digits: 2 },
        cohort: {
          agents: [
            {
              id: 'A',
              family: 'rope-carry',
              size: 's',
              seed: 1,
              view: 'plain',
              checkpoint: 'checkpoints/add-d2/rope-carry.s.s1.ckpt',
            },
          ],
        },
      }),
    );
    const out = join(root, 'one.regime.json');
    const r = run(['--config', file, '--problems', '40', '--samples', '4', '--json', out]);
    expect(r.stderr).toMatch(/one agent: gate A3 \(reach\) needs a pair/);
    // the engineered agent pretrained on every add d2 train problem: said, with why 'unseen' cannot help here
    expect(r.stderr).toMatch(
      /notice: 100% of the RL prompts \(first 20 steps\) are problems the agents pretrained on; 'unseen' cannot draw here/,
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/\| A3 \| .* \| not measurable \| needs a pair/);
    expect(r.stdout).toMatch(/\| A1 \| .* \| (pass|fail) \| A \d\.\d{3} \|/);
    expect(r.stdout).toMatch(/40 problems; rollout K = 4 at T = 1/);

    // --from measures a later slice of the same split: problems 0-19 and 20-39 make up the 40 above
    let stdout = '';
    const greedyRight = (args: string[], json: string): number => {
      const q = run(['--config', file, '--samples', '4', ...args, '--json', json]);
      expect(q.status).toBe(0);
      stdout = q.stdout;
      const rep = JSON.parse(readFileSync(json, 'utf8'))[0].report;
      return rep.figures.agents[0].greedy.value * rep.problems;
    };
    const all = greedyRight(['--problems', '40'], out);
    const head = greedyRight(['--problems', '20'], join(root, 'head.json'));
    const tail = greedyRight(['--problems', '20', '--from', '20'], join(root, 'tail.json'));
    expect(stdout).toMatch(/validation split, problems 20-39 \(20\); rollout K = 4/);
    expect(Math.min(head, tail)).toBeGreaterThan(0); // both halves have right answers: the sum is not 0 + 0
    expect(Math.round(head + tail)).toBe(Math.round(all));
    const rep = JSON.parse(readFileSync(join(root, 'tail.json'), 'utf8'))[0].report;
    expect(rep).toMatchObject({ problems: 20, first: 20 });
    expect(JSON.parse(readFileSync(join(root, 'head.json'), 'utf8'))[0].report.first).toBeUndefined();
  });

  it('--from must be a non-negative integer, named in the refusal', () => {
    const r = run(['--preset', 'paper-demo', '--from', '-3']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /--from: must be a non-negative integer \(the index of the first problem measured\), got '-3'/,
    );
    expect(r.stdout).toBe('');
  });
});
