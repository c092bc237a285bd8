export async function login() {}
