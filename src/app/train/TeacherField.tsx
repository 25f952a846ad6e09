// The co-rl teacher setting (docs/method.md ("Extensions from the public code")): the paper's ring, or one of the public Co-RL code's peer
// teachers for N >= 3, each marked as an extension; a peer teacher with fewer agents shows the reason.
import { TEACHER_HELP, TEACHER_MODES, type TeacherMode } from '../../rl/coLabeling';
import { changeSettings } from '../../store/trainBridge';

const LABEL: Record<TeacherMode, string> = {
  ring: 'ring predecessor (paper, default)',
  strict_majority: 'strict majority of peers (extension)',
  self_plus_peers: 'peers, own vote breaks ties (extension)',
  union: 'union of peers’ votes (extension)',
};

export function TeacherField({ value, problem }: { value: TeacherMode; problem?: string }) {
  return (
    <div className="field">
      <label htmlFor="hp-teacher">Co-RL teacher</label>
      <select
        id="hp-teacher"
        data-testid="hp-teacher"
        value={value}
        onChange={(e) => changeSettings({ teacher: e.target.value as TeacherMode })}
      >
        {TEACHER_MODES.map((m) => (
          <option key={m} value={m}>
            {LABEL[m]}
          </option>
        ))}
      </select>
      <p className={problem ? 'field-help error' : 'field-help'} data-testid="hp-teacher-help">
        {problem ?? `${TEACHER_HELP[value]}${value === 'ring' ? '' : '; needs N ≥ 3 agents'}`}
      </p>
    </div>
  );
}
