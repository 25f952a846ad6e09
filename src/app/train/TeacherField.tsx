// The co-rl teacher setting (docs/method.md ("Extensions from the public code")): the paper's ring, or one of the public Co-RL code's peer
// teachers for N >= 3, each marked as an extension; a peer teacher with fewer agents shows the reason.
import { TEACHER_HELP, TEACHER_MODES, type TeacherMode } from '../../rl/coLabeling';
import { changeSettings } from '../../store/trainBridge';
import { SelectField } from './SelectField';

const LABEL: Record<TeacherMode, string> = {
  ring: 'ring predecessor (paper, default)',
  strict_majority: 'strict majority of peers (extension)',
  self_plus_peers: 'peers, own vote breaks ties (extension)',
  union: 'union of peers’ votes (extension)',
};

export function TeacherField({ value, problem }: { value: TeacherMode; problem?: string }) {
  return (
    <SelectField
      id="teacher"
      label="Co-RL teacher"
      value={value}
      options={TEACHER_MODES.map((v) => ({ v, label: LABEL[v] }))}
      onChange={(teacher) => changeSettings({ teacher })}
      help={`${TEACHER_HELP[value]}${value === 'ring' ? '' : '; needs N ≥ 3 agents'}`}
      problem={problem}
    />
  );
}
