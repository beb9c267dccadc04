// Answers /auth/* with authflow and gives every request `locals.auth()`.
export { handle } from "./auth"
