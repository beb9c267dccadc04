// `locals.auth()` and `locals.getSession()` are declared by authflow/sveltekit (App.Locals).
import type {} from "authflow/sveltekit"

declare global {
  namespace App {}
}

export {}
