// Shared by the certificate, CDN and load balancer tests (it has none of its own): a self-signed P-256
// certificate for shop.example.com and www.shop.example.com, valid until 2126, with its key and a stranger key.
export const leaf = `-----BEGIN CERTIFICATE-----
MIIBwzCCAWigAwIBAgIUHzXIUZ6tJtjYIxzAXIMDqK+BWPAwCgYIKoZIzj0EAwIw
GzEZMBcGA1UEAwwQc2hvcC5leGFtcGxlLmNvbTAgFw0yNjExMjgwMjI4MDhaGA8y
MTI2MTEwNDAyMjgwOFowGzEZMBcGA1UEAwwQc2hvcC5leGFtcGxlLmNvbTBZMBMG
ByqGSM49AgEGCCqGSM49AwEHA0IABNsAmzpD4aR84ea81hTBZQSIO9V2UebaZT9y
hzGkuQ4J0dNkWriQt11Fhrn1w15B7HeVfzW6HnAxnQ9fr22d+XijgYcwgYQwHQYD
VR0OBBYEFJEUpRYgA9lGaYi4+9mJ9MZgJE+FMB8GA1UdIwQYMBaAFJEUpRYgA9lG
aYi4+9mJ9MZgJE+FMA8GA1UdEwEB/wQFMAMBAf8wMQYDVR0RBCowKIIQc2hvcC5l
eGFtcGxlLmNvbYIUd3d3LnNob3AuZXhhbXBsZS5jb20wCgYIKoZIzj0EAwIDSQAw
RgIhAPAvKWIEx/fFDMNzNAMhpHHHgxWZBFyv2cIXa459qf4RAiEAnICNIHSuHTl/
/MSmAAphrb9igW0PoXVjvg81KQKpvUw=
-----END CERTIFICATE-----`;
export const key = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg58xZqfM5Ig/2t22Q
mMscpTpPjQzLvIthdogTT0nl9Y2hRANCAATbAJs6Q+GkfOHmvNYUwWUEiDvVdlHm
2mU/cocxpLkOCdHTZFq4kLddRYa59cNeQex3lX81uh5wMZ0PX69tnfl4
-----END PRIVATE KEY-----`;
export const otherKey = `-----BEGIN EC PRIVATE KEY-----
MHcCAQEEIKzt/oq9r+BIl2TGyxcOS9xfGBwXmxA65SFQC9njVQM4oAoGCCqGSM49
AwEHoUQDQgAEU64yF1U4NggLIF3Xs8fJaZIMLzzkSMoAlgSQmT9SNc5eGazVmJRG
fjsfuPtYxvO7DSN+dPJA8hsX36uPF/kGiQ==
-----END EC PRIVATE KEY-----`;
