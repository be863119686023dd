/**
 * A labelled `<select>` that picks a record by id (a modem, a template, a group), with a first
 * choice for none ("any modem", "Choose…") whose value is ''.
 */
export function IdSelect<Item extends { id: string; name: string }>(props: {
  label: string;
  /** The first choice, value ''. */
  none: string;
  choices: readonly Item[] | undefined;
  value: string;
  onChange: (id: string) => void;
  /** What a choice says; its `name` unless given. */
  nameOf?: (item: Item) => string;
  name?: string;
  id?: string;
}) {
  const nameOf = props.nameOf ?? ((item: Item) => item.name);
  return (
    <label>
      {props.label}
      <select
        id={props.id}
        name={props.name}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      >
        <option value="">{props.none}</option>
        {props.choices?.map((item) => (
          <option key={item.id} value={item.id}>
            {nameOf(item)}
          </option>
        ))}
      </select>
    </label>
  );
}
