import type { ReactNode } from 'react';
import { describeError } from '../api/apiClient.js';

/** The three states every list and panel can be in besides "has data". */

export function Loading(props: { what?: string }) {
  return (
    <p className="muted loading" role="status">
      Loading{props.what ? ` ${props.what}` : ''}…
    </p>
  );
}

export function ErrorNote(props: { error: unknown; onRetry?: () => void; title?: string }) {
  return (
    <div className="note note-error" role="alert">
      <strong>{props.title ?? 'Something went wrong.'}</strong> {describeError(props.error)}
      {props.onRetry && (
        <button type="button" className="link-button" onClick={props.onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function EmptyState(props: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty-title">{props.title}</p>
      {props.children && <div className="muted">{props.children}</div>}
    </div>
  );
}

export function Banner(props: { tone: 'info' | 'warn' | 'error'; title: string; children?: ReactNode }) {
  return (
    <div className={`banner banner-${props.tone}`} role={props.tone === 'info' ? 'status' : 'alert'}>
      <strong>{props.title}</strong>
      {props.children && <span> {props.children}</span>}
    </div>
  );
}

/** The outcome of a user action: a success line, or the failure to describe. */
export type ActionResult = { ok: true; text: string } | { ok: false; error: unknown };

/** A one-line outcome under a form: "Saved." or the server's reason. */
export function FormResult(props: { result: ActionResult | undefined }) {
  if (!props.result) return null;
  return props.result.ok ? (
    <p className="form-ok" role="status">
      {props.result.text}
    </p>
  ) : (
    <p className="form-error" role="alert">
      {describeError(props.result.error)}
    </p>
  );
}
