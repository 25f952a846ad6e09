// Small controls the lab views share: a labelled checkbox and a file button that hands over the chosen files.
import type { ChangeEvent } from 'react';

export function Toggle({
  label,
  testId,
  checked,
  onChange,
}: {
  label: string;
  testId: string;
  checked: boolean;
  onChange(v: boolean): void;
}) {
  return (
    <label>
      <input
        type="checkbox"
        data-testid={testId}
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />{' '}
      {label}
    </label>
  );
}

interface FileProps {
  label: string;
  testId: string;
  onFiles(files: File[]): Promise<unknown>;
  /** Pick a folder (with its subfolders) instead of files. */
  folder?: boolean;
}

export function FileButton({ label, testId, onFiles, folder }: FileProps) {
  const pick = (e: ChangeEvent<HTMLInputElement>) => {
    const files = [...(e.target.files ?? [])];
    e.target.value = '';
    if (files.length) void onFiles(files);
  };
  const kind = folder
    ? { webkitdirectory: '', directory: '' }
    : { multiple: true, accept: '.json,application/json' };
  return (
    <label className="file-button">
      {label} <input type="file" data-testid={testId} onChange={pick} {...kind} />
    </label>
  );
}
