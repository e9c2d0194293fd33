/** Why an injection was refused, announced to screen readers; nothing when it was not. */
export function Refusal({ text }: { readonly text: string | null }) {
  if (!text) return null;
  return (
    <p role="alert" className="refusal">
      {text}
    </p>
  );
}
