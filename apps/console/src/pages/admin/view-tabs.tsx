// The views of an administrator's page (People's employees, students…; the review queue's pending,
// rejected, completed) as tabs: one link a view, `?view=<name>`, the current one marked.
import { useSearchParams } from 'react-router';

/** The page's view from `?view=`, the first of `views` when it names none of them. */
export function useView<View extends string>(views: readonly View[]): View {
  const [params] = useSearchParams();
  const named = params.get('view') ?? '';
  return (views as readonly string[]).includes(named) ? (named as View) : views[0]!;
}

export function ViewTabs<View extends string>({ label, views, current, text }: { label: string; views: readonly View[]; current: View; text: (view: View) => string }) {
  const [, setParams] = useSearchParams();
  return (
    <nav aria-label={label} className="tabs">
      <ul>
        {views.map((name) => (
          <li key={name}>
            <a
              href={`?view=${name}`}
              aria-current={current === name ? 'page' : undefined}
              onClick={(event) => {
                event.preventDefault();
                setParams({ view: name });
              }}
            >
              {text(name)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
