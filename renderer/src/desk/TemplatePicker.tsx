import { useApp } from '../appContext.js';
import { useResource } from '../useResource.js';

/** "Use a template": puts a saved text into a message box (Compose, Bulk send). */
export function TemplatePicker(props: { onPick: (text: string) => void; id: string }) {
  const { api } = useApp();
  const templates = useResource(() => api.templates(), [api]);
  if (!templates.data || templates.data.length === 0) return null;
  return (
    <label htmlFor={props.id}>
      Template{' '}
      <select
        id={props.id}
        value=""
        onChange={(event) => {
          const picked = templates.data?.find((template) => template.id === event.target.value);
          if (picked) props.onPick(picked.text);
        }}
      >
        <option value="">Use a template…</option>
        {templates.data.map((template) => (
          <option key={template.id} value={template.id}>
            {template.name}
          </option>
        ))}
      </select>
    </label>
  );
}
