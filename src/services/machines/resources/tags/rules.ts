export const tagPattern = /^[a-zA-Z0-9_:-]{1,255}$/;
