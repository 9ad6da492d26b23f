/** Where the site and its API live, from the request (so links work behind any host name). */
export interface Site {
  url: string;
  api: string;
}
