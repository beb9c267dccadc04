/**
 * Input validation of the Qwik form actions `useSignIn` and `useSignOut`, in the shape Qwik City
 * gives a failed action: `{ failed: true, formErrors, fieldErrors }`, with one `fieldErrors` entry
 * per input field (a list of messages, or `undefined` for a valid field).
 *
 * Written by hand rather than with `zod$`: Qwik City flattens zod issues into one string per field,
 * while the interface promises string arrays; and a validator built here needs no optimizer pass.
 *
 * @module
 */

/** What `useSignIn` accepts; forms send nested fields as `options.username`, `authorizationParams.prompt`… */
export interface SignInInput {
  /** The provider to sign in with; without it (or with an unknown id) the user goes to the sign-in page. */
  providerId?: string
  /** Where to go after signing in; `options.redirectTo` wins. Default: the current page. */
  redirectTo?: string
  /** `redirectTo`, plus the fields sent to the provider (the credentials of a credentials provider). */
  options?: { redirectTo?: string; [key: string]: unknown }
  /** Extra query parameters of the authorization request (OAuth). */
  authorizationParams?: string | URLSearchParams | Record<string, string>
}

/** What `useSignOut` accepts. */
export interface SignOutInput {
  /** Where to go after signing out. Default: the current page. */
  redirectTo?: string
}

/** `fieldErrors` of a failed `useSignIn`. */
export interface SignInFieldErrors {
  authorizationParams: string[] | undefined
  options: string[] | undefined
  providerId: string[] | undefined
  redirectTo: string[] | undefined
}

/** `fieldErrors` of a failed `useSignOut`. */
export interface SignOutFieldErrors {
  redirectTo: string[] | undefined
}

/** A failed validation, as the action's value. */
export interface ValidationFailure<FieldErrors> {
  failed: true
  formErrors: string[]
  fieldErrors: FieldErrors
}

/** A successful action: no failure fields. */
export interface ActionSuccess {
  failed?: undefined
  formErrors?: undefined
  fieldErrors?: undefined
}

/** Value of `useSignIn().value`. */
export type SignInResult = ActionSuccess | ValidationFailure<SignInFieldErrors>
/** Value of `useSignOut().value`. */
export type SignOutResult = ActionSuccess | ValidationFailure<SignOutFieldErrors>

/** What a Qwik City `validator$` returns. */
export type Validation<Data, FieldErrors> =
  | { success: true; data: Data }
  | { success: false; status: number; error: { formErrors: string[]; fieldErrors: FieldErrors } }

function kindOf(value: unknown): string {
  if (value === null) return "null"
  if (Array.isArray(value)) return "array"
  return typeof value
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof URLSearchParams)
}

function optionalString(value: unknown): string[] | undefined {
  return value === undefined || typeof value === "string" ? undefined : [`Expected string, received ${kindOf(value)}`]
}

function formErrorsOf(data: unknown): string[] {
  return isRecord(data) ? [] : [`Expected object, received ${kindOf(data)}`]
}

/**
 * Checks the input of `useSignIn`. Unknown top-level fields are dropped; `options` keeps its extra
 * keys.
 *
 * @example
 * ```ts
 * validateSignIn({ providerId: 42 })
 * // { success: false, status: 400, error: { formErrors: [], fieldErrors: {
 * //   authorizationParams: undefined, options: undefined, providerId: ["Expected string, received number"], redirectTo: undefined } } }
 * ```
 */
export function validateSignIn(data: unknown): Validation<SignInInput, SignInFieldErrors> {
  const formErrors = formErrorsOf(data)
  const input = isRecord(data) ? data : {}
  const { providerId, redirectTo, options, authorizationParams } = input
  let optionsErrors: string[] | undefined
  if (options !== undefined) {
    if (!isRecord(options)) optionsErrors = [`Expected object, received ${kindOf(options)}`]
    else if (options.redirectTo !== undefined && typeof options.redirectTo !== "string") {
      optionsErrors = [`redirectTo: Expected string, received ${kindOf(options.redirectTo)}`]
    }
  }
  let paramsErrors: string[] | undefined
  if (authorizationParams !== undefined && typeof authorizationParams !== "string" && !(authorizationParams instanceof URLSearchParams)) {
    if (!isRecord(authorizationParams) || Object.values(authorizationParams).some((value) => typeof value !== "string")) {
      paramsErrors = ["Expected a string, URLSearchParams or a record of strings"]
    }
  }
  const fieldErrors: SignInFieldErrors = {
    authorizationParams: paramsErrors,
    options: optionsErrors,
    providerId: optionalString(providerId),
    redirectTo: optionalString(redirectTo),
  }
  if (formErrors.length || Object.values(fieldErrors).some(Boolean)) {
    return { success: false, status: 400, error: { formErrors, fieldErrors } }
  }
  const clean: SignInInput = {}
  if (providerId !== undefined) clean.providerId = providerId as string
  if (redirectTo !== undefined) clean.redirectTo = redirectTo as string
  if (options !== undefined) clean.options = options as SignInInput["options"]
  if (authorizationParams !== undefined) clean.authorizationParams = authorizationParams as SignInInput["authorizationParams"]
  return { success: true, data: clean }
}

/**
 * Checks the input of `useSignOut`.
 *
 * @example
 * ```ts
 * validateSignOut({ redirectTo: "/" }) // { success: true, data: { redirectTo: "/" } }
 * ```
 */
export function validateSignOut(data: unknown): Validation<SignOutInput, SignOutFieldErrors> {
  const formErrors = formErrorsOf(data)
  const redirectTo = isRecord(data) ? data.redirectTo : undefined
  const fieldErrors: SignOutFieldErrors = { redirectTo: optionalString(redirectTo) }
  if (formErrors.length || fieldErrors.redirectTo) return { success: false, status: 400, error: { formErrors, fieldErrors } }
  return { success: true, data: redirectTo === undefined ? {} : { redirectTo: redirectTo as string } }
}
