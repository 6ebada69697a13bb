#ifndef JACKWAVE_PORTSMF_READER_H
#define JACKWAVE_PORTSMF_READER_H
/* Filled in by the piano roll's reader (see Sources/CPortSMF). */
#endif
