import { type ReactNode, useState } from 'react';

/**
 * A button for what cannot be undone (remove, revoke, cancel): the first click asks, in words
 * that say what will happen, and only "Yes, …" does it; "Keep" puts the button back.
 */
export function ConfirmButton(props: {
  /** The button's text before it asks ("Cancel campaign"). */
  label: string;
  /** Its accessible name when the text alone is ambiguous in a list ("Cancel message to +49…"). */
  ariaLabel?: string;
  /** What will happen ("Cancel the 120 messages still waiting?"). */
  question: ReactNode;
  /** The button that does it ("Yes, cancel"). */
  confirmLabel: string;
  /** The button that backs out. */
  keepLabel?: string;
  className?: string;
  disabled?: boolean;
  onConfirm: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const className = props.className ?? 'danger-outline';
  if (!asking) {
    return (
      <button
        type="button"
        className={className}
        disabled={props.disabled}
        aria-label={props.ariaLabel}
        onClick={() => setAsking(true)}
      >
        {props.label}
      </button>
    );
  }
  return (
    <span className="inline-action">
      <span>{props.question}</span>
      <button
        type="button"
        className="danger"
        disabled={props.disabled}
        onClick={() => {
          setAsking(false);
          props.onConfirm();
        }}
      >
        {props.confirmLabel}
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        {props.keepLabel ?? 'Keep'}
      </button>
    </span>
  );
}
