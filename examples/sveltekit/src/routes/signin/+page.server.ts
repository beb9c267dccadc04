import { CredentialsSignin } from "authflow/sveltekit"
import { fail } from "@sveltejs/kit"
import { signIn } from "../../auth"
import type { Actions } from "./$types"

export const actions: Actions = {
  // The form posts providerId, redirectTo and the credentials; signIn redirects on success and
  // throws CredentialsSignin for a wrong password.
  default: async (event) => {
    try {
      return await signIn(event)
    } catch (error) {
      if (error instanceof CredentialsSignin) return fail(400, { error: "Wrong username or password." })
      throw error
    }
  },
}
