/* Client of scripts/capture-dns-corpus.sh, compiled against glibc (gcc ... -lresolv) and musl (musl-gcc):
 *   resolve gai <unspec|inet|inet6|addrconfig|canon> NAME...   getaddrinfo with that family/flag
 *   resolve query <TYPE-NUMBER> NAME...                       res_query(NAME, C_IN, TYPE)
 *   resolve search <TYPE-NUMBER> NAME...                      res_search(NAME, C_IN, TYPE)
 * Both libraries read /etc/resolv.conf and send to port 53; failures are printed, never fatal. */
#include <netdb.h>
#include <netinet/in.h>
#include <resolv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: resolve gai|query|search MODE NAME...\n"); return 2; }
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[1], "gai") == 0) {
            struct addrinfo hints = {0}, *res = NULL;
            hints.ai_socktype = SOCK_STREAM;
            if (strcmp(argv[2], "inet") == 0) hints.ai_family = AF_INET;
            else if (strcmp(argv[2], "inet6") == 0) hints.ai_family = AF_INET6;
            else hints.ai_family = AF_UNSPEC;
            if (strcmp(argv[2], "addrconfig") == 0) hints.ai_flags = AI_ADDRCONFIG;
            if (strcmp(argv[2], "canon") == 0) hints.ai_flags = AI_CANONNAME;
            int rc = getaddrinfo(argv[i], "443", &hints, &res);
            printf("getaddrinfo %s %s: %s\n", argv[2], argv[i], rc ? gai_strerror(rc) : "ok");
            if (res) freeaddrinfo(res);
        } else {
            unsigned char answer[4096];
            int type = atoi(argv[2]);
            int n = strcmp(argv[1], "search") == 0 ? res_search(argv[i], C_IN, type, answer, sizeof answer)
                                                    : res_query(argv[i], C_IN, type, answer, sizeof answer);
            printf("%s %d %s: %d\n", argv[1], type, argv[i], n);
        }
    }
    return 0;
}
