import { useState } from 'react';

/** Copies `text`; falls back to selecting it when the clipboard API is refused. */
export function CopyButton(props: { text: string; label?: string }) {
  const [copied, setCopied] = useState<'idle' | 'done' | 'failed'>('idle');
  async function copy() {
    try {
      await navigator.clipboard.writeText(props.text);
      setCopied('done');
    } catch {
      setCopied('failed');
    }
    setTimeout(() => setCopied('idle'), 2000);
  }
  return (
    <button type="button" className="button-small" onClick={() => void copy()}>
      {copied === 'done'
        ? 'Copied'
        : copied === 'failed'
          ? 'Copy failed — select and copy'
          : (props.label ?? 'Copy')}
    </button>
  );
}
