// The Sweep view (issue 15): placeholder until the sweep report reader lands.
export default function SweepView() {
  return <div className="sweep-view" />;
}
