/**
 * A persistence folder as the first framing wrote it (ENTSNP1, ENTJRN1: JSON frames, pictures and
 * BLOBs in base64), made by the code before format 2 (commit 98bb30a) from BINARY_MODEL under a
 * ManualClock at 2025-01-01: its data file's two Docs as the snapshot, then three records (Doc 2
 * rewritten with a picture, Doc 3 created with a BLOB and a UTF-8 title, Doc 1's BLOB removed).
 * Kept as it was written, to check that such a folder still opens. Test-only.
 */

/** The folder's files, base64. */
export const FORMAT_1_FILES: Readonly<Record<string, string>> = {
  'journal-0000000000000001.log':
    'RU5USlJOMQqLAQAAXtKAYHsibHNuIjoxLCJyZWNvcmQiOnsiZm9ybWF0IjoxLCJraW5kIjoid3JpdGUiLCJjaGFuZ2VzIjpb' +
    'eyJvcCI6InVwZGF0ZSIsImRhdGFDbGFzcyI6IkRvYyIsImtleSI6Miwic3RhbXAiOjIsInRpbWVzdGFtcCI6MTczNTY4OTYw' +
    'MDAwMCwidmFsdWVzIjp7IklEIjoyLCJ0aXRsZSI6InJld3JpdHRlbiIsInBpY3R1cmUiOnsiJGJhc2U2NCI6ImlWQk9SdzBL' +
    'R2dvT0xVeHJpcW5JNXdZbFJHT0NvY0RmL2gwOFczcVp1TmYyRlRSVGNwR3d6KzROTEV0cWlhakgiLCJ0eXBlIjoiaW1hZ2Uv' +
    'cG5nIiwidmVyc2lvbiI6Mn0sImZpbGUiOnsiJGJhc2U2NCI6IiIsInR5cGUiOiJhcHBsaWNhdGlvbi9vY3RldC1zdHJlYW0i' +
    'fX19XSwiZ2xvYmFsU3RhbXAiOjEsInNlcXVlbmNlcyI6eyJEb2MiOnsiSUQiOjJ9fX19FwEAAG2Oft17ImxzbiI6MiwicmVj' +
    'b3JkIjp7ImZvcm1hdCI6MSwia2luZCI6IndyaXRlIiwiY2hhbmdlcyI6W3sib3AiOiJpbnNlcnQiLCJkYXRhQ2xhc3MiOiJE' +
    'b2MiLCJrZXkiOjMsInN0YW1wIjoxLCJ0aW1lc3RhbXAiOjE3MzU2ODk2MDAwMDAsInZhbHVlcyI6eyJJRCI6MywidGl0bGUi' +
    'OiLDqXTDqSDinJMiLCJmaWxlIjp7IiRiYXNlNjQiOiJBUDhIIiwidHlwZSI6ImFwcGxpY2F0aW9uL29jdGV0LXN0cmVhbSJ9' +
    'fX1dLCJnbG9iYWxTdGFtcCI6Miwic2VxdWVuY2VzIjp7IkRvYyI6eyJJRCI6M319fX2qAgAANm0kbHsibHNuIjozLCJyZWNv' +
    'cmQiOnsiZm9ybWF0IjoxLCJraW5kIjoid3JpdGUiLCJjaGFuZ2VzIjpbeyJvcCI6InVwZGF0ZSIsImRhdGFDbGFzcyI6IkRv' +
    'YyIsImtleSI6MSwic3RhbXAiOjIsInRpbWVzdGFtcCI6MTczNTY4OTYwMDAwMCwidmFsdWVzIjp7IklEIjoxLCJ0aXRsZSI6' +
    'ImJvdGgiLCJwaWN0dXJlIjp7IiRiYXNlNjQiOiJpVkJPUncwS0dnb0hKa1ZrZzZMQjRQOGVQVng3bXJuWTl4WTFWSE9Tc2RE' +
    'dkRpMU1hNHFweU9jR0pVUmpncUhBMy80ZFBGdDZtYmpYOWhVMFUzS1JzTS91RFN4TGFvbW94K1lGSkVOaWdhQy8zdjBjTzFw' +
    'NW1MZlc5UlF6VW5HUXI4N3REQ3RLYVlpbnh1VUVJMEpoZ0orKzNmd2JPbGw0bDdiVjlCTXlVWENQcnMzc0N5cEphSWVteGVR' +
    'RElrRmdmNTY5M1BzYU9WaDNsclhVOHhJeFVHK09yY3pyQ2lsSVo0YWx4T01DSVVCZmZwMjgyL29aT0ZkMmxiVFQ4aEV3VDI2' +
    'TnJNdnFDU2hIWm9Xa3crSUJJRDllZlp5NzJ2a1lOMVoxbExQUzhSQXZUbTJNcThycENDZEdaWVNqd3VFQUh6NWRmSnU2MmZn' +
    'WE5sVjBrN0xSOEE4dVRXeUxxc25vQnlaRlpJT2l3ZUQvSGoxY2U1cTUyUGNXTlZSemtySFE3dzR0VEd1S3Fjam5CaVZFWTRL' +
    'aHdOLytIVHhiIiwidHlwZSI6ImltYWdlL3BuZyIsInZlcnNpb24iOjR9fX1dLCJnbG9iYWxTdGFtcCI6Mywic2VxdWVuY2Vz' +
    'Ijp7IkRvYyI6eyJJRCI6M319fX0=',
  'snapshot-0000000000000000.snap':
    'RU5UU05QMQoJAAAA3oA7GnsibHNuIjowfQ0EAAAihS5peyJmb3JtYXQiOjEsImtpbmQiOiJzbmFwc2hvdCIsImNoYW5nZXMi' +
    'Olt7Im9wIjoiaW5zZXJ0IiwiZGF0YUNsYXNzIjoiRG9jIiwia2V5IjoxLCJzdGFtcCI6MSwidGltZXN0YW1wIjoxNzM1Njg5' +
    'NjAwMDAwLCJ2YWx1ZXMiOnsiSUQiOjEsInRpdGxlIjoiYm90aCIsInBpY3R1cmUiOnsiJGJhc2U2NCI6ImlWQk9SdzBLR2dv' +
    'SEprVmtnNkxCNFA4ZVBWeDdtcm5ZOXhZMVZIT1NzZER2RGkxTWE0cXB5T2NHSlVSamdxSEEzLzRkUEZ0Nm1ialg5aFUwVTNL' +
    'UnNNL3VEU3hMYW9tb3grWUZKRU5pZ2FDLzN2MGNPMXA1bUxmVzlSUXpVbkdRcjg3dERDdEthWWlueHVVRUkwSmhnSisrM2Z3' +
    'Yk9sbDRsN2JWOUJNeVVYQ1ByczNzQ3lwSmFJZW14ZVFESWtGZ2Y1NjkzUHNhT1ZoM2xyWFU4eEl4VUcrT3JjenJDaWxJWjRh' +
    'bHhPTUNJVUJmZnAyODIvb1pPRmQybGJUVDhoRXdUMjZOck12cUNTaEhab1drdytJQklEOWVmWnk3MnZrWU4xWjFsTFBTOFJB' +
    'dlRtMk1xOHJwQ0NkR1pZU2p3dUVBSHo1ZGZKdTYyZmdYTmxWMGs3TFI4QTh1VFd5THFzbm9CeVpGWklPaXdlRC9IajFjZTVx' +
    'NTJQY1dOVlJ6a3JIUTd3NHRUR3VLcWNqbkJpVkVZNEtod04vK0hUeGIiLCJ0eXBlIjoiaW1hZ2UvcG5nIiwidmVyc2lvbiI6' +
    'NH0sImZpbGUiOnsiJGJhc2U2NCI6Ii8vNzkvUHY2K2ZqMzl2WDA4L0x4OE8vdTdlenI2dW5vNStibDVPUGk0ZURmM3QzYzI5' +
    'cloyTmZXMWRUVDB0SFF6ODdOek12S3ljakh4c1hFdzhMQndMKyt2Ynk3dXJtNHQ3YTF0TE95c2JDdnJxMnNxNnFwcUtlbXBh' +
    'U2pvcUdnbjU2ZG5BPT0iLCJ0eXBlIjoiYXBwbGljYXRpb24vcGRmIiwidmVyc2lvbiI6Mn19fSx7Im9wIjoiaW5zZXJ0Iiwi' +
    'ZGF0YUNsYXNzIjoiRG9jIiwia2V5IjoyLCJzdGFtcCI6MSwidGltZXN0YW1wIjoxNzM1Njg5NjAwMDAwLCJ2YWx1ZXMiOnsi' +
    'SUQiOjIsInRpdGxlIjoiYW4gZW1wdHkgQkxPQiIsImZpbGUiOnsiJGJhc2U2NCI6IiIsInR5cGUiOiJhcHBsaWNhdGlvbi9v' +
    'Y3RldC1zdHJlYW0ifX19XSwiZ2xvYmFsU3RhbXAiOjAsInNlcXVlbmNlcyI6eyJEb2MiOnsiSUQiOjJ9fX0YAAAAQ+69RXsi' +
    'ZW5kIjp0cnVlLCJyZWNvcmRzIjoxfQ==',
}

/** dumpData of the datastore that wrote it, after its three records. */
export const FORMAT_1_DUMP = {
  Doc: [
    {
      __STAMP: 2,
      __TIMESTAMP: '2025-01-01T00:00:00.000Z',
      ID: 1,
      title: 'both',
      picture: {
        $base64:
          'iVBORw0KGgoHJkVkg6LB4P8ePVx7mrnY9xY1VHOSsdDvDi1Ma4qpyOcGJURjgqHA3/4dPFt6mbjX9hU0U3KRsM/uDSxLaomox+YFJENigaC/3v0cO1p5mLfW9RQzUnGQr87tDCtKaYinxuUEI0JhgJ++3fwbOll4l7bV9BMyUXCPrs3sCypJaIemxeQDIkFgf5693PsaOVh3lrXU8xIxUG+OrczrCilIZ4alxOMCIUBffp282/oZOFd2lbTT8hEwT26NrMvqCShHZoWkw+IBID9efZy72vkYN1Z1lLPS8RAvTm2Mq8rpCCdGZYSjwuEAHz5dfJu62fgXNlV0k7LR8A8uTWyLqsnoByZFZIOiweD/Hj1ce5q52PcWNVRzkrHQ7w4tTGuKqcjnBiVEY4KhwN/+HTxb',
        type: 'image/png',
        version: 4,
      },
    },
    {
      __STAMP: 2,
      __TIMESTAMP: '2025-01-01T00:00:00.000Z',
      ID: 2,
      title: 'rewritten',
      picture: {
        $base64: 'iVBORw0KGgoOLUxriqnI5wYlRGOCocDf/h08W3qZuNf2FTRTcpGwz+4NLEtqiajH',
        type: 'image/png',
        version: 2,
      },
      file: {
        $base64: '',
        type: 'application/octet-stream',
      },
    },
    {
      __STAMP: 1,
      __TIMESTAMP: '2025-01-01T00:00:00.000Z',
      ID: 3,
      title: 'été ✓',
      file: {
        $base64: 'AP8H',
        type: 'application/octet-stream',
      },
    },
  ],
}

/** Its global stamp then. */
export const FORMAT_1_GLOBAL_STAMP = 3
