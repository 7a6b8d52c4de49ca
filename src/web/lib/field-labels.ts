/**
 * The API names the field a 400 is about by its code name ("dateTime: Must be between …",
 * docs/api.md): right for API clients, but a person knows the field by the label the form gives it.
 * Unknown names are kept: a message naming a code is still better than one naming nothing.
 */
const FIELD_LABELS: Readonly<Record<string, string>> = {
  UserName: 'Username',
  DisplayName: 'Display Name',
  Email: 'Email',
  Password: 'Password',
  UserType: 'Role',
  isActive: 'Status',
  NameEn: 'Name (English)',
  NameHn: 'Name (Hindi)',
  RTime: 'Result Time',
  OrderId: 'Order',
  GID: 'Ghadis',
  gid: 'Ghadi',
  ghadiId: 'Ghadi',
  result: 'Result',
  dateTime: 'Date',
  User_Id: 'Agent',
  Title: 'Title',
  Slug: 'Slug',
  Content: 'Content',
  from: 'From',
  to: 'To',
  q: 'Search',
  limit: 'Rows per page',
};

/** "field: reason", where field is a code name, possibly with a path into it ("GID.0"). */
const FIELD_MESSAGE = /^([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_]+)*): (.+)$/s;

/** A server message with the field it names in the form's words: "Date: Must be between …". */
export function inWords(message: string): string {
  const match = FIELD_MESSAGE.exec(message);
  const [, field, , reason] = match ?? [];
  if (field === undefined || reason === undefined || !Object.hasOwn(FIELD_LABELS, field)) return message;
  return `${FIELD_LABELS[field]}: ${reason}`;
}
