/* Keeps constant strings in flash on the AVR (2 KiB of RAM) and in ordinary memory on the host. */
#ifndef DR_PORT_H
#define DR_PORT_H
#include <stdio.h>
#include <string.h>
#ifdef __AVR__
#include <avr/pgmspace.h>
#define DR_P(s) PSTR(s)
#define dr_snprintf snprintf_P
#define dr_strcmp_P strcmp_P
#define dr_strncmp_P strncmp_P
#define dr_strcpy_P strcpy_P
#define DR_PS "%S" /* printf conversion for a string that lives in flash */
#else
#define DR_P(s) (s)
#define dr_snprintf snprintf
#define dr_strcmp_P strcmp
#define dr_strncmp_P strncmp
#define dr_strcpy_P strcpy
#define DR_PS "%s"
#endif
#endif
