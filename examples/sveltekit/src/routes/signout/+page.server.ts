import { redirect } from "@sveltejs/kit"
import { signOut } from "../../auth"
import type { Actions, PageServerLoad } from "./$types"

// Only the form action: a GET here goes home.
export const load: PageServerLoad = () => redirect(303, "/")

export const actions: Actions = { default: signOut }
