// A page that is only a message: not found, not allowed, could not load.
import type { ComponentChildren } from 'preact'

export function MessageView({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <section class="message-view">
      <h1>{title}</h1>
      <p>{children}</p>
    </section>
  )
}
